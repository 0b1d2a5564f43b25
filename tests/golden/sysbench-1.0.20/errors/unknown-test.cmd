sysbench foo run
