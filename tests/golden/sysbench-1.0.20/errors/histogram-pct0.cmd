sysbench fileio --histogram --percentile=0 cleanup
