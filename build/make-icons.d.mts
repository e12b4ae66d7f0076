// Types of make-icons.mjs, for the packaging config test.
export declare const PNG_SIZES: number[];
export declare const ICO_SIZES: number[];
export declare function icoFromPngs(images: { size: number; png: Buffer }[]): Buffer;
