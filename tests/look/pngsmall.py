#!/usr/bin/python3
"""Make a screenshot small for the README: an 8-bit RGB(A) PNG from
Chromium becomes a palette PNG of 256 colours: 40 greys for the
near-grey pixels (text, rules, shading) and a 6x6x6 colour cube for the
rest, so text and tables stay sharp.
Only zlib and struct: no imaging library is needed.
    pngsmall.py IN.png OUT.png"""
import struct
import sys
import zlib


def chunks(data):
    i = 8
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        yield data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if ft == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif ft == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif ft == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
        elif ft == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prev[x], prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(line)
        prev = line
    return rows


def main(src, dst):
    data = open(src, "rb").read()
    idat, hdr = b"", None
    for kind, body in chunks(data):
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit("pngsmall: expected 8-bit RGB or RGBA, not interlaced")
    bpp = 3 if ctype == 2 else 4
    rows = unfilter(zlib.decompress(idat), w, h, bpp)
    level = [min(5, (v * 5 + 127) // 255) for v in range(256)]
    grey = [216 + (v * 39 + 127) // 255 for v in range(256)]
    out = bytearray()
    for line in rows:
        out.append(0)
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if max(r, g, b) - min(r, g, b) < 16:
                # greys (text, rules, bands) get 40 levels of their own
                out.append(grey[(r + g + b) // 3])
            else:
                out.append(36 * level[r] + 6 * level[g] + level[b])
    pal = bytes(v for i in range(216)
                for v in (51 * (i // 36), 51 * (i // 6 % 6), 51 * (i % 6)))
    pal += bytes(v for i in range(40) for v in (round(i * 255 / 39),) * 3)

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))

    png = (b"\x89PNG\r\n\x1a\n" +
           chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)) +
           chunk(b"PLTE", pal) + chunk(b"IDAT", zlib.compress(bytes(out), 9)) +
           chunk(b"IEND", b""))
    open(dst, "wb").write(png)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
