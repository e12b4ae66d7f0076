// Renders build/icons/icon.svg to the PNG sizes the installers use (Linux takes the folder of
// NxN.png files, macOS converts the 1024 one to .icns) and writes icon.ico for Windows from the
// PNGs. Run it after editing the SVG: `node build/make-icons.mjs`; the outputs are committed, so
// packaging does not need a browser. Renders with Debian's chromium (or WEFT_CHROMIUM).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows asks for these; 256 is the largest an ICO entry can say it holds. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

const dir = fileURLToPath(new URL('./icons/', import.meta.url));

/**
 * An ICO container with PNG-compressed entries (Windows Vista and later read these).
 * @param {{size: number, png: Buffer}[]} images
 */
export function icoFromPngs(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  const entries = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    entries.push(entry);
    offset += png.length;
  }
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function main() {
  const svg = readFileSync(`${dir}icon.svg`, 'utf8');
  const browser = await chromium.launch({
    executablePath: process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const pngs = new Map();
    for (const size of PNG_SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
      await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
      await page.waitForFunction(() => document.images[0]?.complete === true);
      const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
      writeFileSync(`${dir}${size}x${size}.png`, png);
      pngs.set(size, png);
      await page.close();
    }
    writeFileSync(`${dir}icon.ico`, icoFromPngs(ICO_SIZES.map((size) => ({ size, png: pngs.get(size) }))));
    console.log(`wrote ${PNG_SIZES.length} PNGs and icon.ico to ${dir}`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
