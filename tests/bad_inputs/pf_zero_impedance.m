function mpc = pf_good
% a 3-bus case that solves: the base every pf_* case alters in one place
mpc.version = '2';
mpc.baseMVA = 100;
mpc.bus = [
	1	3	0	0	0	0	1	1	0	230	1	1.1	0.9;
	2	2	20	5	0	0	1	1	0	230	1	1.1	0.9;
	3	1	60	20	0	0	1	1	0	230	1	1.1	0.9;
];
mpc.gen = [
	1	0	0	300	-300	1	100	1	250	10;
	2	40	0	300	-300	1	100	1	300	10;
];
mpc.branch = [
	1	2	0.01	0.085	0.176	250	250	250	0	0	1	-360	360;
	1	3	0.017	0.092	0.158	250	250	250	0	0	1	-360	360;
	2	3	0	0	0.358	150	150	150	0	0	1	-360	360;
];
