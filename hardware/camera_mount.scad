// crib-pi camera mount for the Raspberry Pi Camera Module 3 (or 3 Wide).
//
// Two ways to hold the camera over the play mat:
//   mount = "table": a clamp on the table edge holds a vertical tube (aluminium tube or wooden
//                    dowel, tube_d across); a head on top of the tube carries a horizontal arm
//                    with the camera at its end, lens down. The tube's length sets the height:
//                    the cut length is echoed in the console ("cut the tube to ...").
//   mount = "pole":  a split ring clamps round a lamp pole (pole_d across) and carries the
//                    same arm; slide the ring until the lens is camera_height above the mat.
//
// Parts: part = "plate" lays every printable part of the chosen mount flat for printing;
// "assembly" shows them in place with the tube, table and camera (not for printing);
// "table_clamp", "head", "pole_clamp_arm", "pole_clamp_back" give one part each. E.g.
//   openscad -D 'part="head"' -o head.stl hardware/camera_mount.scad
//
// Units: millimetres and degrees. The table top (mat) is z = 0; the table lies at x > 0 and
// the arm reaches out over it along +x.

/* [Placement] */
camera_height = 600;    // lens above the mat (mm); 60 cm suits the Camera Module 3
tilt = 0;               // degrees from straight down; + turns the lens away from the pole
arm_length = 180;       // from the tube or pole centre to the camera centre (mm)
mount = "table";        // "table" or "pole"
part = "plate";         // "plate", "assembly", "table_clamp", "head", "pole_clamp_arm", "pole_clamp_back"

/* [Table clamp] */
clamp_thickness = 30;   // thickest table top the jaws open to (mm)
clamp_reach = 45;       // how far the jaws reach in over the table (mm)
clamp_width = 40;       // width of the clamp along the table edge (mm)
jaw = 10;               // thickness of the jaws and the spine (mm)
clamp_screw_d = 6.6;    // M6 clamp screw, clearance hole
clamp_nut_af = 10.2;    // M6 nut across flats, with clearance
clamp_nut_h = 5.5;      // M6 nut height, with clearance

/* [Tube] */
tube_d = 20;            // outer diameter of the tube or dowel (20 mm tube; 3/4" dowel: 19.1)
tube_clearance = 0.4;   // added to tube_d for the socket bore
socket_depth = 40;      // how far the tube goes into each socket (mm)
set_screw_d = 3.4;      // M4 screw cut into the printed boss (3.4 mm pilot hole)

/* [Lamp pole] */
pole_d = 25;            // lamp pole diameter (mm); line the ring with rubber tape if loose
ring_h = 30;            // height of the pole ring (mm)
ring_gap = 2;           // gap between the two ring halves, closed by the bolts (mm)
ring_bolt_d = 4.4;      // M4 bolts through the ring ears, clearance hole

/* [Arm and camera] */
arm_w = 16;             // arm width (mm)
arm_h = 10;             // arm height (mm)
wall = 4;               // general wall thickness (mm)
cam_w = 25;             // Camera Module 3 board width (mm)
cam_h = 24;             // board height (mm)
cam_depth = 11.5;       // board + lens, back to lens front (mm)
hole_dx = 21;           // mounting holes apart across the board (mm)
hole_dy = 12.5;         // mounting holes apart down the board (mm)
hole_inset = 2;         // hole centres in from the board's top corners (mm)
cam_screw_d = 2.2;      // M2 clearance; use M2 x 10 screws with nuts on top of the plate
standoff_h = 5;         // gap behind the board for its connector and parts (mm)
standoff_d = 5;         // standoff diameter (mm)
plate_t = 3;            // camera plate thickness (mm)

$fn = 64;
eps = 0.01;

// ---- derived sizes ----------------------------------------------------------------------
bore_d = tube_d + tube_clearance;
sleeve_d = bore_d + 2 * wall;
ring_bore = pole_d + 0.6;
ring_od = ring_bore + 2 * wall;
// lens front below the top of the arm, camera looking straight down
lens_below_arm_top = arm_h + standoff_h + cam_depth;
// the table mount: tube from the top jaw (z = jaw) into the head's socket
head_top_above_tube = wall;
tube_length = camera_height - jaw + lens_below_arm_top - head_top_above_tube;
arm_top_z = camera_height + lens_below_arm_top;

if (mount == "table")
    echo(str("crib-pi camera mount: cut the tube to ", tube_length, " mm (",
             tube_d, " mm across) for the lens ", camera_height, " mm above the mat"));
else
    echo(str("crib-pi camera mount: clamp the ring with its top ", arm_top_z,
             " mm above the mat for the lens at ", camera_height, " mm"));

// ---- the camera plate: four standoffs for the board, lens down -------------------------
// In its own frame: plate top at z = 0, board centre on the z axis, lens towards -z.
module camera_holes_2d() {
    for (sx = [-1, 1], row = [0, 1])
        translate([sx * hole_dx / 2, cam_h / 2 - hole_inset - row * hole_dy])
            circle(d = cam_screw_d);
}

module camera_plate() {
    difference() {
        union() {
            translate([-(cam_w / 2 + wall), -(cam_h / 2 + wall), -plate_t])
                cube([cam_w + 2 * wall, cam_h + 2 * wall, plate_t]);
            for (sx = [-1, 1], row = [0, 1])
                translate([sx * hole_dx / 2, cam_h / 2 - hole_inset - row * hole_dy,
                           -plate_t - standoff_h])
                    cylinder(d = standoff_d, h = standoff_h + eps);
        }
        translate([0, 0, -plate_t - standoff_h - 1])
            linear_extrude(plate_t + standoff_h + 2) camera_holes_2d();
    }
}

// a stand-in for the board and lens, for the assembly view
module camera_ghost() {
    color("green", 0.6) translate([-cam_w / 2, -cam_h / 2, -plate_t - standoff_h - 1])
        cube([cam_w, cam_h, 1]);
    color("black", 0.6) translate([0, 0, -plate_t - standoff_h - cam_depth])
        cylinder(d = 8, h = cam_depth - 1);
}

// the plate hung under the arm's end at the tilt angle, with a solid wedge between them
module arm_end(with_ghost = false) {
    translate([arm_length, 0, -arm_h]) {
        hull() {
            translate([-arm_w / 2, -arm_w / 2, 0]) cube([arm_w, arm_w, arm_h]);
            rotate([0, -tilt, 0])
                translate([-(cam_w / 2 + wall), -(cam_h / 2 + wall), -plate_t])
                    cube([cam_w + 2 * wall, cam_h + 2 * wall, eps]);
        }
        rotate([0, -tilt, 0]) {
            camera_plate();
            if (with_ghost) camera_ghost();
        }
    }
}

// the arm from (0, 0) out along +x, top at z = 0
module arm(from_x) {
    translate([from_x, -arm_w / 2, -arm_h]) cube([arm_length - from_x, arm_w, arm_h]);
}

// ---- the head: a socket cap on the top of the tube, with the arm --------------------------
// Top of the head at z = 0; the tube comes in from below.
module head(with_ghost = false) {
    difference() {
        union() {
            translate([0, 0, -socket_depth - head_top_above_tube])
                cylinder(d = sleeve_d, h = socket_depth + head_top_above_tube);
            arm(0);
            arm_end(with_ghost);
            set_screw_boss(-socket_depth / 2 - head_top_above_tube);
        }
        translate([0, 0, -socket_depth - head_top_above_tube - eps])
            cylinder(d = bore_d, h = socket_depth + eps);
        set_screw_hole(-socket_depth / 2 - head_top_above_tube);
    }
}

// a boss on the sleeve's -x side with a radial screw to lock the tube
module set_screw_boss(z) {
    translate([-sleeve_d / 2 - 2, 0, z]) rotate([0, 90, 0]) cylinder(d = 10, h = wall + 4);
}

module set_screw_hole(z) {
    translate([-sleeve_d / 2 - 4, 0, z]) rotate([0, 90, 0]) cylinder(d = set_screw_d, h = 3 * wall);
}

// ---- the table clamp: a C round the table edge with a socket on top -----------------------
// Table top at z = 0, table edge at x = 0; the tube stands beside the edge at x = -tube_x.
tube_x = sleeve_d / 2;

module table_clamp() {
    w = clamp_width;
    back = 2 * tube_x;    // the spine sits under the socket, outside the table edge
    difference() {
        union() {
            // top jaw, spine, bottom jaw
            translate([-back, -w / 2, 0]) cube([back + clamp_reach, w, jaw]);
            translate([-back, -w / 2, -clamp_thickness - jaw]) cube([back, w, clamp_thickness + 2 * jaw]);
            translate([-back, -w / 2, -clamp_thickness - jaw]) cube([back + clamp_reach, w, jaw]);
            // socket on the top jaw
            translate([-tube_x, 0, jaw - eps]) cylinder(d = sleeve_d, h = socket_depth + eps);
            translate([-tube_x, 0, jaw + socket_depth / 2]) set_screw_boss(0);
        }
        translate([-tube_x, 0, jaw]) cylinder(d = bore_d, h = socket_depth + 1);
        translate([-tube_x, 0, jaw + socket_depth / 2]) set_screw_hole(0);
        // M6 screw up through the bottom jaw, nut trapped in its underside
        translate([clamp_reach * 0.6, 0, -clamp_thickness - jaw - 1])
            cylinder(d = clamp_screw_d, h = jaw + 2);
        translate([clamp_reach * 0.6, 0, -clamp_thickness - jaw - eps])
            cylinder(d = clamp_nut_af / cos(30), h = clamp_nut_h, $fn = 6);
    }
}

// ---- the pole clamp: a split ring with ears, the arm on one half ---------------------------
// Pole along z through the origin; ring top at z = 0; half "arm" at x > 0.
ear = 12;

module ring_whole() {
    difference() {
        union() {
            translate([0, 0, -ring_h]) cylinder(d = ring_od, h = ring_h);
            for (sy = [-1, 1])
                translate([-ear / 2, sy * (ring_od / 2 + ear / 2) - ear / 2 - sy * wall, -ring_h])
                    cube([ear, ear + wall, ring_h]);
        }
        translate([0, 0, -ring_h - 1]) cylinder(d = ring_bore, h = ring_h + 2);
        for (sy = [-1, 1], z = [-ring_h / 4, -3 * ring_h / 4])
            translate([-ear, sy * (ring_od / 2 + ear / 2 - wall / 2), z])
                rotate([0, 90, 0]) cylinder(d = ring_bolt_d, h = 2 * ear);
    }
}

module pole_clamp_arm(with_ghost = false) {
    difference() {
        union() {
            intersection() {
                ring_whole();
                translate([ring_gap / 2, -ring_od, -ring_h - 1]) cube([ring_od + ear, 2 * ring_od, ring_h + 2]);
            }
            difference() {
                union() {
                    arm(ring_bore / 2);
                    arm_end(with_ghost);
                }
                translate([0, 0, -ring_h - 1]) cylinder(d = ring_bore, h = ring_h + 2);
            }
        }
    }
}

module pole_clamp_back() {
    intersection() {
        ring_whole();
        translate([-ring_od - ear, -ring_od, -ring_h - 1]) cube([ring_od + ear - ring_gap / 2, 2 * ring_od, ring_h + 2]);
    }
}

// ---- views -----------------------------------------------------------------------------
module assembly() {
    if (mount == "table") {
        color("burlywood", 0.4) translate([0, -200, -clamp_thickness]) cube([500, 400, clamp_thickness]);
        color("silver", 0.5) translate([-tube_x, 0, jaw]) cylinder(d = tube_d, h = tube_length);
        color("orange") table_clamp();
        color("orange") translate([-tube_x, 0, jaw + tube_length + head_top_above_tube]) head(true);
    } else {
        color("silver", 0.5) translate([0, 0, -50]) cylinder(d = pole_d, h = arm_top_z + 150);
        translate([0, 0, arm_top_z]) {
            color("orange") pole_clamp_arm(true);
            color("gold") pole_clamp_back();
        }
    }
}

module print_plate() {
    if (mount == "table") {
        // the clamp on its side; the head upside down (arm top on the bed)
        translate([0, 0, clamp_width / 2]) rotate([90, 0, 0]) table_clamp();
        translate([0, 80, 0]) rotate([180, 0, 0]) head();
    } else {
        rotate([180, 0, 0]) pole_clamp_arm();
        translate([0, ring_od + 2 * ear + 10, 0]) rotate([180, 0, 0]) pole_clamp_back();
    }
}

if (part == "plate") print_plate();
else if (part == "assembly") assembly();
else if (part == "table_clamp") translate([0, 0, clamp_width / 2]) rotate([90, 0, 0]) table_clamp();
else if (part == "head") rotate([180, 0, 0]) head();
else if (part == "pole_clamp_arm") rotate([180, 0, 0]) pole_clamp_arm();
else if (part == "pole_clamp_back") rotate([180, 0, 0]) pole_clamp_back();
else echo(str("camera_mount.scad: unknown part \"", part, "\""));
