sysbench fileio --file-fsync-freq=x cleanup
