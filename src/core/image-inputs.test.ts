import { describe, expect, it } from 'vitest';
import { imageInputsLabel, imageInputsSchema } from './image-inputs.js';

describe('imageInputsSchema', () => {
  it('accepts what a sweep sends and says it in words', () => {
    const images = imageInputsSchema.parse({ perRequest: 2, width: 512, height: 512, format: 'png' });
    expect(imageInputsLabel(images)).toBe('2 images of 512×512 PNG per request');
    expect(imageInputsLabel({ ...images, perRequest: 1, width: 33 })).toBe('1 image of 33×512 PNG per request');
    // Format and delivery default to what a file written before them meant: PNG inline.
    expect(images).toMatchObject({ format: 'png', delivery: 'data' });
    expect(imageInputsLabel({ ...images, format: 'jpeg', delivery: 'url' })).toBe('2 images of 512×512 JPEG by URL per request');
  });

  it('refuses a hand-edited file past the limits table, naming the field', () => {
    const bad = (over: Record<string, unknown>) => imageInputsSchema.safeParse({ perRequest: 2, width: 512, height: 512, format: 'png', ...over });
    expect(bad({ perRequest: 1e9 }).error?.issues[0]?.message).toBe('images per request 1000000000 is above the limit of 16 images in one chat request');
    expect(bad({ width: 0 }).error?.issues[0]?.message).toBe('image width must be positive');
    expect(bad({ height: 4097 }).error?.issues[0]?.message).toBe('image height 4097 is above the limit of 4096 pixels on one side of a synthetic image');
    expect(bad({ format: 'gif' }).error?.issues[0]?.message).toBe('image format must be png or jpeg');
    expect(bad({ delivery: 'ftp' }).error?.issues[0]?.message).toBe('image delivery must be data or url');
    expect(bad({ url: 'http://x' }).success).toBe(false);
  });
});
