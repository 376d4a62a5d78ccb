#!/usr/bin/env python3
"""Writes the glTF test levels: multi_node.gltf (+ multi_node.bin) and multi_node.glb, the same
scene. Outputs are committed; rerun (python3 tests/levels/make_gltf_levels.py) only to change them.

Scene (tests/world/gltf_level_test.cpp checks it against hand-computed positions):
  Root        translation (10, 0, 0)
    Box       rotation 90 deg about +y, scale (2, 1, 1): the unit cube [-0.5, 0.5]^3 (UNSIGNED_SHORT indices)
    Child     matrix: uniform scale 0.5, then translation (0, 3, 0)
      Tetra   translation (0, 0, 2): tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,1) (UNSIGNED_BYTE indices)
  Floor-mesh  a 2 x 2 m square at y = 0 (two triangles) and one zero-area triangle (UNSIGNED_INT)
  Ramp        extras {"glide": "mesh"}, translation (0, 0, -5): one triangle, no indices
"""

import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

CUBE = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
CUBE_TRIANGLES = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                  2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3]
TETRA = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TETRA_TRIANGLES = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
FLOOR = [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1), (2, 0, 2)]
FLOOR_TRIANGLES = [0, 2, 1, 0, 3, 2, 4, 4, 2]
RAMP = [(0, 0, 0), (0, 1, -2), (1, 0, 0)]

data = bytearray()
views, accessors = [], []


def add(raw, target):
    while len(data) % 4:
        data.append(0)
    views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(raw), "target": target})
    data.extend(raw)
    return len(views) - 1


def positions(points):
    raw = b"".join(struct.pack("<3f", *p) for p in points)
    accessors.append({"bufferView": add(raw, 34962), "componentType": 5126, "count": len(points), "type": "VEC3",
                      "min": [min(p[i] for p in points) for i in range(3)],
                      "max": [max(p[i] for p in points) for i in range(3)]})
    return len(accessors) - 1


def indices(values, component, fmt):
    raw = b"".join(struct.pack(fmt, v) for v in values)
    accessors.append({"bufferView": add(raw, 34963), "componentType": component, "count": len(values),
                      "type": "SCALAR"})
    return len(accessors) - 1


meshes = [
    {"name": "cube", "primitives": [{"attributes": {"POSITION": positions(CUBE)},
                                     "indices": indices(CUBE_TRIANGLES, 5123, "<H"), "mode": 4}]},
    {"name": "tetra", "primitives": [{"attributes": {"POSITION": positions(TETRA)},
                                      "indices": indices(TETRA_TRIANGLES, 5121, "<B")}]},
    {"name": "floor", "primitives": [{"attributes": {"POSITION": positions(FLOOR)},
                                      "indices": indices(FLOOR_TRIANGLES, 5125, "<I")}]},
    {"name": "ramp", "primitives": [{"attributes": {"POSITION": positions(RAMP)}}]},
]
s = math.sqrt(0.5)
nodes = [
    {"name": "Root", "translation": [10, 0, 0], "children": [1, 2]},
    {"name": "Box", "mesh": 0, "rotation": [0, s, 0, s], "scale": [2, 1, 1]},
    {"name": "Child", "matrix": [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 3, 0, 1], "children": [3]},
    {"name": "Tetra", "mesh": 1, "translation": [0, 0, 2]},
    {"name": "Floor-mesh", "mesh": 2},
    {"name": "Ramp", "mesh": 3, "translation": [0, 0, -5], "extras": {"glide": "mesh"}},
]


def document(buffer):
    while len(data) % 4:
        data.append(0)
    return {"asset": {"version": "2.0", "generator": "make_gltf_levels.py"}, "scene": 0,
            "scenes": [{"nodes": [0, 4, 5]}], "nodes": nodes, "meshes": meshes, "accessors": accessors,
            "bufferViews": views, "buffers": [dict(buffer, byteLength=len(data))]}


with open(os.path.join(HERE, "multi_node.bin"), "wb") as f:
    f.write(data)
with open(os.path.join(HERE, "multi_node.gltf"), "w") as f:
    json.dump(document({"uri": "multi_node.bin"}), f, indent=1)
    f.write("\n")

text = json.dumps(document({}), separators=(",", ":")).encode()
text += b" " * (-len(text) % 4)
glb = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(data), b"BIN\0") + bytes(data)
with open(os.path.join(HERE, "multi_node.glb"), "wb") as f:
    f.write(struct.pack("<4sII", b"glTF", 2, 12 + len(glb)) + glb)
