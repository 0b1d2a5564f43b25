sysbench fileio --percentile=99.9 cleanup
