sysbench fileio --report-interval=x cleanup
