// Sensor collar for one horn of the bull figure: a plate on the head with the
// optics of the two base beams and the posts of the tip beam (hardware/beams.md).
// All sizes in mm; measure your figure and change the parameters, then
// export an STL per horn (mirror = true for the right horn).
// Print in PETG, 0.2 mm layers, no supports needed (the bores are horizontal
// teardrops).

/* [Figure] */
horn_base_radius = 12;     // horn radius where it meets the head
horn_lean = 10;            // degrees the horn leans outward (away from the other horn)
horn_gap = 110;            // axis to axis
tip_beam_height = 65;      // above the head: where the horn is ~6 mm in radius

/* [Beams] */
base_beam_height = 5;      // centre of the base beams above the head
base_beam_offset = 15;     // from the horn axis, front and back
base_beam_length = 110;    // tower to tower: outside any ring around the horn (53 mm)
tip_beam_offset = 9;       // from the horn axis at tip height, towards the other horn
tip_post_distance = 60;    // posts front and back of the horn
led_diameter = 3.2;        // 3 mm LEDs (5 mm sensors: 5.2)
led_depth = 8;
pinhole = 1.5;             // narrows the light path to about 3 mm (hardware/beams.md)

/* [Collar] */
plate_thickness = 1.6;     // thin, so the ring lies almost on the head
plate_clearance = 0.4;     // around the horn
tower_size = [10, 10, 10]; // optics towers at the beam ends
post_size = [8, 8];        // tip posts
cable_channel = [4, 3];    // groove under the plate for the wires
mirror_for_right_horn = false;

$fn = 48;

module teardrop_bore(d, depth) {
    // horizontal bore printable without supports
    rotate([0, 90, 0]) linear_extrude(depth) union() {
        circle(d = d);
        rotate(45) square(d / 2);
    }
}

module optics_tower(facing) {
    // facing: +1 looks along +x, -1 along -x. It stands in the plate (from z = 0), so the print is
    // one body; heights above the plate's top, where a ring lies.
    z = plate_thickness + base_beam_height;
    difference() {
        translate([-tower_size[0] / 2, -tower_size[1] / 2, 0])
            cube([tower_size[0], tower_size[1], plate_thickness + tower_size[2]]);
        // LED bore from the back, pinhole to the front
        translate([facing > 0 ? -tower_size[0] / 2 - 0.1 : tower_size[0] / 2 - led_depth + 0.1, 0, z])
            teardrop_bore(led_diameter, led_depth);
        translate([-tower_size[0], 0, z]) teardrop_bore(pinhole, 2 * tower_size[0]);
        // leads down into the cable channel
        translate([0, 0, -0.1]) cylinder(d = 2.5, h = z);
    }
}

module tip_post(facing) {
    // a slim post holding one end of the tip beam, which runs front to back
    lean_shift = tip_beam_height * tan(horn_lean);
    x = tip_beam_offset - lean_shift;  // follow the horn's outward lean
    z = plate_thickness + tip_beam_height;
    difference() {
        translate([x - post_size[0] / 2, facing * tip_post_distance - post_size[1] / 2, 0])
            cube([post_size[0], post_size[1], z + 6]);
        // LED bore from the outside, pinhole through the inner face
        translate([x, facing * (tip_post_distance + post_size[1] / 2 + 0.1), z])
            rotate([0, 0, facing > 0 ? -90 : 90]) teardrop_bore(led_diameter, led_depth);
        translate([x, facing * (tip_post_distance - post_size[1]), z])
            rotate([0, 0, facing > 0 ? 90 : -90]) teardrop_bore(pinhole, 2 * post_size[1]);
        translate([x, facing * tip_post_distance, -0.1]) cylinder(d = 2.5, h = z);
    }
}

module plate() {
    half = base_beam_length / 2;
    difference() {
        hull() {
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * half, sy * (tip_post_distance), 0]) cylinder(r = 6, h = plate_thickness);
        }
        translate([0, 0, -0.1]) cylinder(r = horn_base_radius + plate_clearance, h = plate_thickness + 0.2);
        // cable channel under the plate, from every tower and post to the back edge
        for (sy = [-1, 1])
            translate([-half, sy * base_beam_offset - cable_channel[0] / 2, -0.1])
                cube([base_beam_length, cable_channel[0], cable_channel[1] / 2]);
    }
}

module collar() {
    half = base_beam_length / 2;
    plate();
    for (sy = [-1, 1]) {
        // emitter on the outer end, receiver on the inner end of each base beam
        translate([-half, sy * base_beam_offset, 0]) optics_tower(+1);
        translate([half, sy * base_beam_offset, 0]) optics_tower(-1);
        tip_post(sy);
    }
}

if (mirror_for_right_horn) mirror([1, 0, 0]) collar(); else collar();
