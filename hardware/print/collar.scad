// Sensor collar of the bull figure (hardware/beams.md): one plate over the whole head, with
//  - a hole for each horn,
//  - a rim around the edge carrying the optics of the ten base beams (per horn a hexagon of lines
//    15 mm from its axis, 2 mm above the plate; the front and back lines shared by both horns),
//    each beam over a shallow groove in the plate,
//  - eight tall posts carrying the four tip beams 92 mm above the plate (an X over each tip),
//  - a pocket under the plate for the knock sensor's piezo disc.
// The frame is the one of hardware/pinmap.json: origin on the plate's top between the horns, x
// towards the right horn, y away from the players, z up, mm. Every light path computed here is (to
// 0.1 mm) the `path` of its beam in the pin map (after changing a size, update the pin map to the
// paths it echoes: `python hardware/beam_study.py` and the tests read the pin map, not this file).
//
// Measure your figure, change the parameters, then:
//     openscad -o collar.stl hardware/print/collar.scad
// Print in PETG, plate down, 0.2 mm layers, no supports: the bores are horizontal teardrops.
// Each optic is a bore for a 3 mm LED (emitter or receiver: the same bore) behind a 2 mm pinhole in
// a 1 mm wall; hardware/beams.md lists which end of each beam takes the emitter.

/* [Figure: measure yours] */
head_half = [125, 70];     // half the head's top: x (horn to horn) and y (front to back)
horn_x = 55;               // each horn's axis leaves the head this far from the middle
horn_base_radius = 12;     // where it leaves the head
horn_lean = 10;            // degrees, outward
horn_length = 90;

/* [Collar] */
plate_thickness = 3;       // the rings lie on its top: measure the horns from there
plate_clearance = 0.4;     // around each horn
rim_height = 9;            // above the plate's top
rim_width = 6;

/* [Base beams] */
base_beam_height = 2;      // centre of the light above the plate's top
base_beam_offset = 15;     // from each horn's axis
base_beam_normals = [30, 90, 150, 210, 270, 330];  // degrees: a hexagon; 90/270 are the shared back/front
groove_width = 3;          // under each base beam: the light clears the plate even 1 mm low
groove_depth = 1.5;

/* [Tip beams] */
tip_beam_height = 92;      // above the plate: 2.7 mm over the highest point of the tips
tip_beam_angles = [60, 120];  // degrees from the x axis: each horn's two tip beams cross over its tip,
                           // posts on the front and back rim, 74 mm from the tip: no ring (60 mm hole)
                           // can rest around a tip and a post together
post_radius = 4;
post_above_light = 5;

/* [Optics] */
led_diameter = 3.2;        // 3 mm LEDs (5 mm ones: 5.2, and boss_size 9)
led_depth = 6;             // bore behind the pinhole wall; the leads leave at its back
pinhole = 2.0;             // = the light path's width (both ends apertured)
pinhole_wall = 1.0;
boss_size = 7;             // square cross-section of each optics block on the rim's outside

/* [Knock sensor] */
piezo_diameter = 21;       // Murata 7BB-20-6L0 (20 mm brass disc) + 1 mm
piezo_depth = 1.0;         // pocket in the plate's underside, under the middle of the head
wire_channel = [2.5, 1.0]; // width, depth: from the pocket to the back edge

$fn = 32;

inner = [head_half[0] - rim_width, head_half[1] - rim_width];  // the rim's inner face
light_z = plate_thickness + base_beam_height;                  // heights from the plate's underside
tip_z = plate_thickness + tip_beam_height;
tip_x = horn_x + horn_length * sin(horn_lean);                 // over each tip

// ------------------------------------------------------------------ geometry

function unit(v) = v / norm(v);

// The stretch of the line p + t d inside the rim's inner face: [t_min, t_max].
function slab(p, d, lo, hi) = d == 0 ? [-1e9, 1e9] : [min((lo - p) / d, (hi - p) / d), max((lo - p) / d, (hi - p) / d)];
function clip(p, d) =
    let (tx = slab(p[0], d[0], -inner[0], inner[0]), ty = slab(p[1], d[1], -inner[1], inner[1]))
    [max(tx[0], ty[0]), min(tx[1], ty[1])];

// A base beam: the line 15 mm from a horn's axis with its normal at angle a, rim to rim: [A, B].
function base_line(hx, a) =
    let (n = [cos(a), sin(a)], p = [hx, 0] + base_beam_offset * n, d = [-n[1], n[0]], t = clip(p, d))
    [p + t[0] * d, p + t[1] * d];

// Every base beam once (the 90/270 lines of both horns are the same two lines, drawn once).
base_lines = concat(
    [for (a = base_beam_normals) base_line(-horn_x, a)],
    [for (a = base_beam_normals) if (a != 90 && a != 270) base_line(horn_x, a)]
);
// A tip beam: the line over the tip at x = hx, along angle a, rim to rim.
function tip_line(hx, a) = let (p = [hx, 0], d = [cos(a), sin(a)], t = clip(p, d)) [p + t[0] * d, p + t[1] * d];
tip_lines = [for (s = [-1, 1]) for (a = tip_beam_angles) tip_line(s * tip_x, a)];

// ------------------------------------------------------------------ parts

module teardrop_bore(d, from, to) {
    // along +x from x = from to x = to; printable without supports (a 45 degree roof)
    translate([from, 0, 0]) rotate([0, 90, 0]) linear_extrude(to - from) union() {
        circle(d = d);
        rotate(45) square(d / 2);
    }
}

// Where the rim face at end point p is: its outward normal.
function face_normal(p) = abs(p[1]) > inner[1] - 0.01 ? [0, sign(p[1])] : [sign(p[0]), 0];
// Along a base beam from its end p (on the rim's inner face) outward: where the rim's outer face is.
function through_rim(p, u) = rim_width / (u * face_normal(p));
// ... and how far back a block square to the beam must start for no corner to poke inside the rim.
function setback(p, u) = let (c = u * face_normal(p)) boss_size / 2 * sqrt(1 - c * c) / c;

// A frame at end p of a beam, x pointing outward along the beam (away from its other end).
module at_end(p, u) {
    translate([p[0], p[1], 0]) rotate([0, 0, atan2(u[1], u[0])]) children();
}

// A base beam's optic at end p: a block on the rim's outside. The pinhole wall stands just past the
// rim's outer face, so the optics of two beams ending side by side (the inner diagonals cross in the
// rim at the middle of the front and of the back) sit apart.
module base_optic_block(p, u) {
    at_end(p, u) translate([setback(p, u), -boss_size / 2, 0])
        cube([through_rim(p, u) - setback(p, u) + pinhole_wall + led_depth, boss_size, light_z + boss_size / 2]);
}

module base_optic_bores(p, u) {
    wall = through_rim(p, u);
    at_end(p, u) translate([0, 0, light_z]) {
        teardrop_bore(pinhole, -1, wall + pinhole_wall + 0.01);
        teardrop_bore(led_diameter, wall + pinhole_wall, wall + pinhole_wall + led_depth + 1);
    }
}

// Under each base beam a groove, so the light clears the plate even 1 mm low.
module groove(a, b) {
    hull() for (q = [a, b])
        translate([q[0], q[1], plate_thickness - groove_depth]) cylinder(d = groove_width, h = groove_depth + 0.01);
}

// A tip beam's post at end p (centred on the light's end, as the toss simulator has it), with a fin
// outside the rim that stiffens it.
module tip_post_solid(p, u) {
    at_end(p, u) {
        cylinder(r = post_radius, h = tip_z + post_above_light);
        hull() {
            translate([0, -1.5, 0]) cube([post_radius + 10, 3, 1]);
            translate([0, -1.5, 0]) cube([1, 3, 40]);
        }
    }
}

module tip_post_bores(p, u) {
    at_end(p, u) {
        translate([0, 0, tip_z]) teardrop_bore(pinhole, -post_radius - 1, -post_radius + pinhole_wall + 0.01);
        translate([0, 0, tip_z]) teardrop_bore(led_diameter, -post_radius + pinhole_wall, post_radius + 1);
        translate([post_radius - 1.2, -1, 40]) cube([2, 2, tip_z - 40]);  // the leads run down the outer side
    }
}

module plate() {
    difference() {
        union() {
            translate([-head_half[0], -head_half[1], 0]) cube([2 * head_half[0], 2 * head_half[1], plate_thickness]);
            difference() {  // the rim
                translate([-head_half[0], -head_half[1], 0])
                    cube([2 * head_half[0], 2 * head_half[1], plate_thickness + rim_height]);
                translate([-inner[0], -inner[1], -1]) cube([2 * inner[0], 2 * inner[1], plate_thickness + rim_height + 2]);
            }
        }
        // the horns, leaning outward
        for (s = [-1, 1]) translate([s * horn_x, 0, 0]) rotate([0, s * horn_lean, 0])
            cylinder(r = horn_base_radius + plate_clearance, h = 4 * plate_thickness, center = true);
        // the knock sensor's disc, glued brass side up into a pocket under the plate, and its wires
        translate([0, 0, -0.01]) cylinder(d = piezo_diameter, h = piezo_depth + 0.01, $fn = 64);
        translate([-wire_channel[0] / 2, 0, -0.01]) cube([wire_channel[0], head_half[1] + 1, wire_channel[1] + 0.01]);
    }
}

module collar() {
    difference() {
        union() {
            plate();
            for (l = base_lines) {
                base_optic_block(l[0], unit(l[0] - l[1]));
                base_optic_block(l[1], unit(l[1] - l[0]));
            }
            for (l = tip_lines) {
                tip_post_solid(l[0], unit(l[0] - l[1]));
                tip_post_solid(l[1], unit(l[1] - l[0]));
            }
        }
        // Cut last, through everything: the light of a diagonal that ends beside a tip post grazes
        // the post's foot.
        for (l = base_lines) {
            groove(l[0], l[1]);
            u = unit(l[1] - l[0]);
            at_end(l[0], -u) translate([0, 0, light_z]) teardrop_bore(pinhole, -norm(l[1] - l[0]) - 1, 1);
            base_optic_bores(l[0], unit(l[0] - l[1]));
            base_optic_bores(l[1], unit(l[1] - l[0]));
        }
        for (l = tip_lines) {
            tip_post_bores(l[0], unit(l[0] - l[1]));
            tip_post_bores(l[1], unit(l[1] - l[0]));
        }
    }
}

for (l = base_lines) echo(base_beam = [for (q = l) [round(q[0] * 10) / 10, round(q[1] * 10) / 10, base_beam_height]]);
for (l = tip_lines) echo(tip_beam = [for (q = l) [round(q[0] * 10) / 10, round(q[1] * 10) / 10, tip_beam_height]]);
collar();
