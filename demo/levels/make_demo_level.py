#!/usr/bin/env python3
"""Generates glide's demo level: demo.obj (convex pieces), demo.gltf + demo.bin (the same pieces
as glTF 2.0), demo_terrain.png (16-bit heightmap), demo_tour.json (the scripted walk) and
demo.json (the description, with the moving pieces'
motions). The outputs are committed; rerun this only to change the
level:  python3 demo/levels/make_demo_level.py  (writes next to itself).

Coordinates are metres, +Y up. The level stands on the flat centre of the terrain (y = 0 for
|x|, |z| < 32); README.md in this folder describes every part."""

import itertools
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- convex pieces ---------------------------------------------------------------------------

pieces = []  # (name, [(x, y, z)]) each the vertices of one convex piece


def hull_faces(points):
    """Faces of the convex hull of a small point set, each a list of indices ordered
    counter-clockwise seen from outside (brute force: the pieces have at most 16 points)."""
    def sub(a, b):
        return (a[0] - b[0], a[1] - b[1], a[2] - b[2])

    def cross(a, b):
        return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])

    def dot(a, b):
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]

    faces, seen = [], set()
    for i, j, k in itertools.combinations(range(len(points)), 3):
        n = cross(sub(points[j], points[i]), sub(points[k], points[i]))
        length = math.sqrt(dot(n, n))
        if length < 1e-9:
            continue
        n = (n[0] / length, n[1] / length, n[2] / length)
        d = [dot(n, sub(p, points[i])) for p in points]
        if max(d) > 1e-7:
            if min(d) < -1e-7:
                continue
            n = (-n[0], -n[1], -n[2])
            d = [-x for x in d]
        on = tuple(sorted(m for m in range(len(points)) if abs(d[m]) <= 1e-7))
        if on in seen:
            continue
        seen.add(on)
        c = [sum(points[m][a] for m in on) / len(on) for a in range(3)]
        u = sub(points[on[0]], c)
        ul = math.sqrt(dot(u, u))
        u = (u[0] / ul, u[1] / ul, u[2] / ul)
        v = cross(n, u)
        ordered = sorted(on, key=lambda m: math.atan2(dot(sub(points[m], c), v), dot(sub(points[m], c), u)))
        faces.append(ordered)
    return faces


def add(name, points):
    pieces.append((name, [tuple(round(c, 6) for c in p) for p in points]))


def box(name, lo, hi):
    add(name, [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def turned_box(name, center, half, yaw_deg=0.0, pitch_deg=0.0):
    """A box turned by yaw about +Y, then pitched about its own x axis."""
    cy, sy = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    cp, sp = math.cos(math.radians(pitch_deg)), math.sin(math.radians(pitch_deg))
    pts = []
    for x, y, z in itertools.product(*[(-h, h) for h in half]):
        y, z = y * cp - z * sp, y * sp + z * cp  # pitch about x
        x, z = x * cy + z * sy, -x * sy + z * cy  # yaw about y
        pts.append((center[0] + x, center[1] + y, center[2] + z))
    add(name, pts)


def ramp_toward_minus_z(name, x0, x1, z_base, height, degrees):
    """A wedge rising from y = 0 at z_base toward -z at `degrees`, `height` at its top edge."""
    run = height / math.tan(math.radians(degrees))
    z_top = z_base - run
    add(name, [(x0, 0, z_base), (x1, 0, z_base), (x0, 0, z_top), (x1, 0, z_top), (x0, height, z_top),
               (x1, height, z_top)])
    return z_top


def ramp_toward_plus_z(name, x0, x1, z_base, z_top, height):
    add(name, [(x0, 0, z_base), (x1, 0, z_base), (x0, 0, z_top), (x1, 0, z_top), (x0, height, z_top),
               (x1, height, z_top)])


def octagonal_prism(name, cx, cz, radius, height):
    ring = [(cx + radius * math.cos(math.pi / 8 + i * math.pi / 4), cz + radius * math.sin(math.pi / 8 + i * math.pi / 4))
            for i in range(8)]
    add(name, [(x, y, z) for x, z in ring for y in (0.0, height)])


def house(prefix, x0, z0, door_x0, door_x1):
    """An 8 x 8 m house with 0.2 m walls 5 m high, a door in its south wall (z = z0), a roof,
    and a mezzanine over its north half; the caller adds the way up."""
    x1, z1, t, h = x0 + 8, z0 + 8, 0.2, 5.0
    box(prefix + "_wall_south_west", (x0, 0, z0), (door_x0, h, z0 + t))
    box(prefix + "_wall_south_east", (door_x1, 0, z0), (x1, h, z0 + t))
    box(prefix + "_lintel", (door_x0, 2.4, z0), (door_x1, h, z0 + t))
    box(prefix + "_wall_north", (x0, 0, z1 - t), (x1, h, z1))
    box(prefix + "_wall_west", (x0, 0, z0 + t), (x0 + t, h, z1 - t))
    box(prefix + "_wall_east", (x1 - t, 0, z0 + t), (x1, h, z1 - t))
    box(prefix + "_roof", (x0, h, z0), (x1, h + 0.2, z1))


# Tiles: 6 x 6 tiles of 1 m, 0.1 m thick; the east half alternates 1 mm higher (seams with steps).
for i, j in itertools.product(range(6), range(6)):
    top = 0.101 if (i >= 3 and (i + j) % 2 == 1) else 0.1
    box(f"tile_{i}_{j}", (-3 + i, 0, -3 + j), (-2 + i, top, -2 + j))

# Ramps at 20, 40, 50 and 60 degrees, 3 m wide, rising 1.5 m toward -z onto a platform each.
ramp_x = {20: 6.0, 40: 11.0, 50: 16.0, 60: 21.0}
for deg, x0 in ramp_x.items():
    z_top = ramp_toward_minus_z(f"ramp_{deg}deg", x0, x0 + 3, -6.0, 1.5, deg)
    box(f"ramp_{deg}deg_platform", (x0, 0, z_top - 3), (x0 + 3, 1.5, z_top))

# Corridors along z, 4 m long, walls 2.5 m high: 0.8 m wide (passable) and 0.5 m (blocked).
box("corridor_wide_wall_west", (7.2, 0, 5), (7.6, 2.5, 9))
box("corridor_wide_wall_east", (8.4, 0, 5), (8.8, 2.5, 9))
box("corridor_narrow_wall_west", (11.35, 0, 5), (11.75, 2.5, 9))
box("corridor_narrow_wall_east", (12.25, 0, 5), (12.65, 2.5, 9))

# A 90 degree corner (inside at x = 19.9, z = 7.9) and a 45 degree corner (tip at x = 27, z = 6).
box("corner_90_wall_north", (16, 0, 7.9), (20.1, 2.5, 8.1))
box("corner_90_wall_east", (19.9, 0, 4), (20.1, 2.5, 8.1))
turned_box("corner_45_wall_a", (25.0, 1.25, 6.1), (2.1, 1.25, 0.1))
acute_dir = (-math.cos(math.radians(45)), -math.sin(math.radians(45)))  # second wall, from the tip
turned_box("corner_45_wall_b", (27 + 2.0 * acute_dir[0] + 0.07, 1.25, 6 + 2.0 * acute_dir[1] - 0.07),
           (2.1, 1.25, 0.1), yaw_deg=-45)

# Pillars: a 4 x 4 grid, 2 m apart, square 0.5 m boxes and octagonal prisms alternating.
for i, j in itertools.product(range(4), range(4)):
    cx, cz = -11 + 2 * i, 5 + 2 * j
    if (i + j) % 2 == 0:
        box(f"pillar_box_{i}_{j}", (cx - 0.25, 0, cz - 0.25), (cx + 0.25, 3, cz + 0.25))
    else:
        octagonal_prism(f"pillar_octagon_{i}_{j}", cx, cz, 0.35, 3.0)

# A thin wall: 5 cm thick, 4 m long, 2.5 m high.
box("thin_wall", (-10, 0, 16), (-6, 2.5, 16.05))

# A low ceiling: a slab from 1.6 to 1.8 m between two side walls (the 1.8 m capsule cannot pass).
box("low_ceiling_slab", (-10, 1.6, -10), (-7, 1.8, -8))
box("low_ceiling_side_west", (-10.2, 0, -10), (-10, 1.8, -8))
box("low_ceiling_side_east", (-7, 0, -10), (-6.8, 1.8, -8))

# A sloped ceiling: a slab whose underside falls from 3.2 m at z = -4 to 1.4 m at z = -12.
slope = math.degrees(math.atan2(1.8, 8.0))
mid_under = (3.2 + 1.4) / 2
pitch_c, pitch_s = math.cos(math.radians(slope)), math.sin(math.radians(slope))
turned_box("sloped_ceiling", (-24, mid_under + 0.1 * pitch_c, -8 - 0.1 * pitch_s),
           (3.0, 0.1, math.hypot(8.0, 1.8) / 2), pitch_deg=-slope)
box("sloped_ceiling_side_west", (-27.2, 0, -12), (-27, 3.4, -4))
box("sloped_ceiling_side_east", (-21, 0, -12), (-20.8, 3.4, -4))

# House A: its staircase is one convex ramp (40.2 degrees) up to the mezzanine.
house("house_ramp", -28, 18, -25, -23.5)
box("house_ramp_mezzanine", (-27.8, 2.5, 22), (-20.2, 2.7, 25.8))
ramp_toward_plus_z("house_ramp_stair_ramp", -22, -20.2, 18.8, 22, 2.7)

# House B: real steps, 11 boxes of 0.25 m rise and 0.3 m tread, up to a mezzanine at 2.75 m.
house("house_steps", 18, 18, 21, 22.5)
for i in range(11):
    box(f"house_steps_step_{i:02d}", (24.2, 0, 19.0 + 0.3 * i), (25.8, 0.25 * (i + 1), 19.0 + 0.3 * (i + 1)))
box("house_steps_mezzanine", (18.2, 2.55, 22.3), (25.8, 2.75, 25.8))

# ---- moving pieces ---------------------------------------------------------------------------
# Kinematic pieces south of the level (x -2..19, z -31..-15): demo.json gives each its motion,
# keys of an offset (m) and a turn (degrees, counter-clockwise seen from above) about a vertical
# axis through a pivot. Times are the tour's clock (s), which starts at 0 with the tour.

moving = []  # demo.json's "moving_pieces"


def moves(name, repeat, keys, pivot=(0.0, 0.0, 0.0)):
    moving.append({"object": name, "motion": {"pivot": list(pivot), "repeat": repeat,
                                              "keys": [{"t": t, "offset": list(o), "yaw_deg": y} for t, o, y in keys]}})


def polygon_prism(name, cx, cz, radius, y0, y1, sides):
    ring = [(cx + radius * math.cos(2 * math.pi * i / sides), cz + radius * math.sin(2 * math.pi * i / sides))
            for i in range(sides)]
    add(name, [(x, y, z) for x, z in ring for y in (y0, y1)])


# The lift: a 2 x 2 m platform (top at 0.2 m) at (0, -20) that waits 3 s at the bottom, rises
# 3 m in 3 s to the top of a deck south of it, waits 4 s there and comes down in 3 s.
LIFT_RISE, LIFT_PERIOD = 3.0, 13.0
box("lift", (-1, 0, -21), (1, 0.2, -19))
box("lift_deck", (-2, 0, -24.5), (2, 0.2 + LIFT_RISE, -21.05))
moves("lift", "loop", [(0, (0, 0, 0), 0), (3, (0, 0, 0), 0), (6, (0, LIFT_RISE, 0), 0), (10, (0, LIFT_RISE, 0), 0),
                       (LIFT_PERIOD, (0, 0, 0), 0)])

# The turntable: a disc (16-sided prism) of radius 2 m, top at 0.2 m, a turn every 8 s.
polygon_prism("turntable", 8.0, -20.0, 2.0, 0.0, 0.2, 16)
moves("turntable", "loop", [(0, (0, 0, 0), 0), (8, (0, 0, 0), 360)], pivot=(8.0, 0.0, -20.0))

# The walkway: a 6 x 3 m platform (top at 0.2 m) sliding 4 m along x and back at 1 m/s.
box("walkway", (5, 0, -28.5), (11, 0.2, -25.5))
moves("walkway", "ping_pong", [(0, (-2, 0, 0), 0), (4, (2, 0, 0), 0)])

# The swinging door: 1.1 m wide, 8 cm thick, 2.2 m high, hinged at x = 15.55 in a doorway of a
# wall along z = -20; closed 2 s, opens 90 degrees toward -z in 1.5 s, open 3 s, closes in 1.5 s.
DOOR_PERIOD, DOOR_HINGE = 8.0, (15.55, 0.0, -20.0)
box("door_wall_west", (13, 0, -20.1), (15.5, 2.5, -19.9))
box("door_wall_east", (16.7, 0, -20.1), (19, 2.5, -19.9))
box("door", (15.55, 0, -20.04), (16.65, 2.2, -19.96))
moves("door", "loop", [(0, (0, 0, 0), 0), (2, (0, 0, 0), 0), (3.5, (0, 0, 0), 90), (6.5, (0, 0, 0), 90),
                       (DOOR_PERIOD, (0, 0, 0), 0)], pivot=DOOR_HINGE)

with open(os.path.join(HERE, "demo.obj"), "w") as f:
    f.write("# glide demo level: one convex piece per object (generated by make_demo_level.py)\n")
    base = 1
    for name, pts in pieces:
        f.write(f"o {name}\n")
        for p in pts:
            f.write("v " + " ".join(f"{c:g}" for c in p) + "\n")
        for face in hull_faces(pts):
            f.write("f " + " ".join(str(base + m) for m in face) + "\n")
        base += len(pts)

# The same pieces as glTF 2.0 (demo.gltf + demo.bin): a node per piece, named as the OBJ object,
# its hull faces fanned into triangles. Vertices are listed in the order the faces first use them
# and rounded as the OBJ writes them, so glide builds the same hulls from either file.
gltf_data = bytearray()
gltf_views, gltf_accessors, gltf_meshes, gltf_nodes = [], [], [], []
for name, pts in pieces:
    faces = hull_faces(pts)
    order = []
    for face in faces:
        for m in face:
            if m not in order:
                order.append(m)
    rounded = [tuple(float(f"{c:g}") for c in pts[m]) for m in order]
    local = {m: k for k, m in enumerate(order)}
    triangles = [local[m] for face in faces for k in range(1, len(face) - 1) for m in (face[0], face[k], face[k + 1])]
    position_bytes = b"".join(struct.pack("<3f", *p) for p in rounded)
    index_bytes = b"".join(struct.pack("<H", m) for m in triangles)
    for raw, target in ((position_bytes, 34962), (index_bytes, 34963)):
        gltf_data.extend(b"\0" * (-len(gltf_data) % 4))
        gltf_views.append({"buffer": 0, "byteOffset": len(gltf_data), "byteLength": len(raw), "target": target})
        gltf_data.extend(raw)
    gltf_accessors.append({"bufferView": len(gltf_views) - 2, "componentType": 5126, "count": len(rounded),
                           "type": "VEC3", "min": [min(p[a] for p in rounded) for a in range(3)],
                           "max": [max(p[a] for p in rounded) for a in range(3)]})
    gltf_accessors.append({"bufferView": len(gltf_views) - 1, "componentType": 5123, "count": len(triangles),
                           "type": "SCALAR"})
    gltf_meshes.append({"name": name, "primitives": [{"attributes": {"POSITION": len(gltf_accessors) - 2},
                                                      "indices": len(gltf_accessors) - 1}]})
    gltf_nodes.append({"name": name, "mesh": len(gltf_meshes) - 1})
with open(os.path.join(HERE, "demo.bin"), "wb") as f:
    f.write(gltf_data)
with open(os.path.join(HERE, "demo.gltf"), "w") as f:
    json.dump({"asset": {"version": "2.0", "generator": "glide make_demo_level.py"}, "scene": 0,
               "scenes": [{"name": "glide demo level", "nodes": list(range(len(gltf_nodes)))}],
               "nodes": gltf_nodes, "meshes": gltf_meshes, "accessors": gltf_accessors,
               "bufferViews": gltf_views, "buffers": [{"uri": "demo.bin", "byteLength": len(gltf_data)}]},
              f, separators=(",", ":"))
    f.write("\n")

# ---- terrain ---------------------------------------------------------------------------------

N, CELL, ORIGIN = 257, 0.5, (-64.0, 0.0, -64.0)
HEIGHT_SCALE, HEIGHT_OFFSET = 20.0, -4.0  # world y = -4 + 20 * sample / 65535


def smoothstep(a, b, x):
    t = min(max((x - a) / (b - a), 0.0), 1.0)
    return t * t * (3 - 2 * t)


def terrain_height(x, z):
    r = max(abs(x), abs(z))
    rim = smoothstep(33.0, 56.0, r)
    hills = 2.0 * math.sin(0.23 * x + 0.7) * math.cos(0.19 * z - 0.4) + 1.2 * math.sin(0.11 * (x + z))
    h = rim * (5.0 + hills)
    if x > 38.0:  # the cliff: a 5 m wall along the east side, one cell wide
        h += 5.0 * smoothstep(38.0, 38.5, x)
    return h


rows = bytearray()
for r in range(N):
    rows.append(0)  # PNG filter: none
    z = ORIGIN[2] + r * CELL
    for c in range(N):
        x = ORIGIN[0] + c * CELL
        v = round((terrain_height(x, z) - HEIGHT_OFFSET) / HEIGHT_SCALE * 65535)
        rows += struct.pack(">H", min(max(v, 0), 65535))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


with open(os.path.join(HERE, "demo_terrain.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n")
    f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 16, 0, 0, 0, 0)))
    f.write(chunk(b"IDAT", zlib.compress(bytes(rows), 9)))
    f.write(chunk(b"IEND", b""))

# ---- the tour --------------------------------------------------------------------------------

tour = []


def go(name, x, y, z, **extra):
    tour.append({"name": name, "to": [x, y, z], **extra})


# expect: "reach" (default: a frame without progress is stuck), "blocked" (the walker pushes
# against something it must not pass until the timeout), "either" (both outcomes are fine).
go("tiles_corner", -2.5, 0.1, -2.5)
go("tiles_diagonal", 2.5, 0.1, 2.5, speed=5.0)
go("ramp20_foot", 7.5, 0, -5)
go("ramp20_top", 7.5, 1.5, -12)
go("ramp20_platform_edge", 8.6, 1.5, -12.5)
go("ramp20_fall_off_side", 10.0, 0, -12.5)
go("ramps_between", 10.0, 0, -4.5)
go("ramp40_foot", 12.5, 0, -5)
go("ramp40_top", 12.5, 1.5, -9.5)
go("ramp40_jump", 12.5, 1.5, -10.5, jump=True)
go("ramp40_down", 12.5, 0, -4.5)
go("ramp50_foot", 17.5, 0, -5)
go("ramp50_try", 17.5, 1.5, -9.5, expect="either", timeout=3.0)
go("ramp50_back", 17.5, 0, -4.5)
go("ramp60_foot", 22.5, 0, -5)
go("ramp60_blocked", 22.5, 1.5, -9.5, expect="blocked", timeout=2.0)
go("ramp60_back", 22.5, 0, -4.5)
go("corridor_wide_entry", 8.0, 0, 4)
go("corridor_wide_exit", 8.0, 0, 10)
go("corridor_narrow_entry", 12.0, 0, 10)
go("corridor_narrow_blocked", 12.0, 0, 4, expect="blocked", timeout=2.0)
go("corridor_narrow_back", 12.0, 0, 10.5)
go("corner90_approach", 17.5, 0, 5.5)
go("corner90_push", 19.9, 0, 7.9, expect="blocked", timeout=1.5)
go("corner90_back", 17.5, 0, 5.5)
go("corner90_around", 18.0, 0, 2.5)
go("corner45_approach", 23.3, 0, 4.5)
go("corner45_push", 27.0, 0, 6.0, expect="blocked", timeout=1.5)
go("corner45_back", 23.0, 0, 3.0)
go("cliff_foot", 35.0, 0, 0)
go("cliff_blocked", 42.0, 5, 0, expect="blocked", timeout=2.5)
go("cliff_back", 30.0, 0, 0)
go("to_house_steps", 29.0, 0, 14)
go("house_steps_door", 21.75, 0, 17)
go("house_steps_inside", 21.75, 0, 18.8)
go("house_steps_stair_foot", 25.0, 0, 18.6)
go("house_steps_stair_top", 25.0, 2.75, 22.8)
go("house_steps_mezzanine", 20.0, 2.75, 23.8)
go("house_steps_mezzanine_back", 25.0, 2.75, 23.0)
go("house_steps_down", 25.0, 0, 18.6)
go("house_steps_out_inside", 21.75, 0, 18.8)
go("house_steps_out", 21.75, 0, 16)
go("pillars_entry", -4, 0, 14)
go("thin_wall_sprint", -8.0, 0, 14.5, speed=4.0)
go("thin_wall_blocked", -8.0, 0, 18.0, speed=12.0, expect="blocked", timeout=1.0)
go("thin_wall_around", -5.0, 0, 15.0)
go("thin_wall_behind", -5.0, 0, 17.5)
go("thin_wall_back", -8.0, 0, 17.5)
go("thin_wall_return", -5.0, 0, 17.5)
go("pillars_north", -6.0, 0, 12)
go("pillars_slalom_1", -6.0, 0, 10)
go("pillars_slalom_2", -8.0, 0, 10)
go("pillars_slalom_3", -8.0, 0, 6)
go("pillars_slalom_4", -10.0, 0, 6)
go("pillars_slalom_5", -10.0, 0, 3)
go("house_ramp_door", -24.25, 0, 17)
go("house_ramp_inside", -24.25, 0, 18.6)
go("house_ramp_stair_foot", -21.1, 0, 18.6)
go("house_ramp_stair_top", -21.1, 2.7, 23.0)
go("house_ramp_mezzanine", -26.0, 2.7, 24.0, wait=0.5)
go("house_ramp_fall_off", -26.0, 0, 20.5)
go("house_ramp_out_inside", -24.25, 0, 19.5)
go("house_ramp_out", -24.25, 0, 16)
go("hills_west", -45.0, 4, 10, speed=5.0)
go("hills_west_far", -50.0, 5, -5, speed=5.0)
go("hills_back", -29.0, 0, -2, speed=5.0)
go("sloped_ceiling_entry", -24.0, 0, -3)
go("sloped_ceiling_under", -24.0, 0, -6.5)
go("sloped_ceiling_jump", -24.0, 0, -7.0, jump=True, wait=1.0)
go("sloped_ceiling_blocked", -24.0, 0, -11.5, expect="blocked", timeout=2.0)
go("sloped_ceiling_out", -24.0, 0, -2)
go("low_ceiling_approach", -8.5, 0, -6)
go("low_ceiling_blocked", -8.5, 0, -12, expect="blocked", timeout=1.5)
# The moving pieces, met on time: the walker reaches each stop early and idles `until` the
# piece's clock (the tour's) is where it must be. It reaches the lift's foot at about 111 s (at
# 30 to 240 Hz) and the door's at about LIFT_AT + 29.5 s; rerun the tour after changing a leg.
LIFT_AT = 9 * LIFT_PERIOD  # 117 s: a lift cycle starts, the lift down for 3 s
go("moving_area_path", -5.0, 0, -7.0)
go("moving_area_entry", 0.0, 0, -15.0)
go("lift_wait", 0.0, 0, -17.6, until=LIFT_AT + 0.3)
go("lift_board", 0.0, 0.2, -20.0, until=LIFT_AT + 6.5)  # rides up from LIFT_AT + 3 to + 6
go("lift_top_off", 0.0, 3.2, -22.8, wait=0.5)
go("lift_top_back", 0.0, 3.2, -20.0, until=LIFT_AT + 13.5)  # rides down from LIFT_AT + 10 to + 13
go("lift_bottom_off", 0.0, 0, -17.6)
go("turntable_approach", 8.0, 0, -16.5)
go("turntable_ride", 8.0, 0.2, -18.8, wait=4.0)  # carried half a turn
go("turntable_off", 8.0, 0, -23.8)
go("walkway_cross", 8.0, 0.2, -30.0, speed=1.5)  # across while it slides
go("walkway_clear", 14.5, 0, -30.0)
DOOR_AT = 19 * DOOR_PERIOD  # 152 s: a door cycle starts, the door closed for 2 s
go("door_approach", 17.5, 0, -23.0, until=DOOR_AT)
go("door_stand", 16.08, 0, -20.55, radius=0.1, wait=3.8)  # the opening door pushes the walker aside
go("door_around", 15.0, 0, -21.9)
go("door_wait", 16.1, 0, -22.0, until=DOOR_AT + DOOR_PERIOD + 3.6)  # until it is open again
go("door_through", 16.1, 0, -18.5)
go("moving_area_exit", 3.5, 0, -16.0)
go("home", 0.0, 0.1, -1.0, wait=0.5)

with open(os.path.join(HERE, "demo_tour.json"), "w") as f:
    json.dump({"description": "The demo tour: every controller feature of demo.obj and the terrain, in order.",
               "defaults": {"speed": 4.0, "radius": 0.3},
               "waypoints": tour}, f, indent=1)
    f.write("\n")

# ---- the description ---------------------------------------------------------------------------


def dump(value, indent=0):
    """JSON with arrays of numbers and small flat objects on one line, as they would be typed."""
    pad, inner = " " * indent, " " * (indent + 2)
    flat = lambda v: isinstance(v, (int, float, str)) or (isinstance(v, list) and all(isinstance(x, (int, float)) for x in v))
    if isinstance(value, dict) and all(flat(v) for v in value.values()) and len(value) <= 3:
        return "{" + ", ".join(f"{json.dumps(k)}: {dump(v)}" for k, v in value.items()) + "}"
    if isinstance(value, dict):
        items = [f'{inner}{json.dumps(k)}: {dump(v, indent + 2)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
        return "[" + ", ".join(json.dumps(v) for v in value) + "]"
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + dump(v, indent + 2) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


with open(os.path.join(HERE, "demo.json"), "w") as f:
    f.write(dump({"name": "glide demo level", "obj": "demo.obj",
                  "terrain": {"file": "demo_terrain.png", "cell_size": [0.5, 0.5], "origin": [-64, 0, -64],
                              "height_scale": 20, "height_offset": -4},
                  "spawn": [0, 0.12, 0], "moving_pieces": moving, "script": "demo_tour.json"}) + "\n")

print(f"{len(pieces)} pieces ({len(moving)} moving), {N}x{N} terrain, {len(tour)} waypoints")
