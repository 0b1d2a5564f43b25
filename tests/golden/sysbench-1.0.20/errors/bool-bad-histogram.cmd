sysbench fileio --histogram=maybe cleanup
