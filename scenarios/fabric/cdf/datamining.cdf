# Data-mining flow sizes (VL2, Greenberg et al., SIGCOMM 2009, Figure 2), as pFabric's simulations and
# the Opera artifact (Figure1_traffic/datamining.csv) tabulate them. Columns: flow size in bytes,
# cumulative probability. Sizes between two points are interpolated linearly. See README.md here.
100 0
180 0.085
250 0.14
560 0.33
900 0.47
1100 0.55
1870 0.65
3160 0.70
10000 0.80
100001 0.874
400000 0.90
1850000 0.95
10000000 0.97
30000000 0.98
100000000 0.99
250000000 0.995
1000000000 1
