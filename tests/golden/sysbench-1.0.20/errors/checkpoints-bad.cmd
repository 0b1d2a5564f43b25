sysbench fileio --report-checkpoints=x cleanup
