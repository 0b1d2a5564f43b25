sysbench fileio --validate=maybe cleanup
