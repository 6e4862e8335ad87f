"""Write the pixels of an X window: grab.py WINDOW_ID OUT.

OUT holds "WIDTH HEIGHT\n" and then the ZPixmap rows as the server sends
them: 4 bytes a pixel, blue, green, red, unused (Xvfb at depth 24).
"""
import sys

from Xlib import X, display

d = display.Display()
win = d.create_resource_object("window", int(sys.argv[1], 0))
g = win.get_geometry()
img = win.get_image(0, 0, g.width, g.height, X.ZPixmap, 0xFFFFFFFF)
with open(sys.argv[2], "wb") as f:
    f.write(b"%d %d\n" % (g.width, g.height))
    f.write(img.data)
