"""Checks a screenshot (an 8-bit RGB or RGBA PNG, as Chromium writes it): the page drew something,
not a blank page, and shows the failure's red. Reads the PNG with the standard library alone."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace != 0:
        sys.exit(f"{path}: unexpected PNG format {header}")
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        yield width, height, channels, line
        previous = line


def main(path):
    inked = red = 0
    width = height = 0
    for width, height, channels, line in rows(path):
        for x in range(0, len(line), channels):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if (r, g, b) != (255, 255, 255):
                inked += 1
            if r > 170 and g < 90 and b < 80:
                red += 1
    share = inked / (width * height)
    if share < 0.02:
        sys.exit(f"screenshot: the page is almost blank ({share:.1%} of it drawn)")
    if red < 50:
        sys.exit(f"screenshot: no failure red on the page ({red} red pixels)")
    print(f"screenshot: {width}x{height}, {share:.1%} of the page drawn, {red} red pixels (the failure marked)")


if __name__ == "__main__":
    main(sys.argv[1])
