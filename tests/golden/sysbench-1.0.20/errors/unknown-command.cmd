sysbench fileio foo
