sysbench fileio --file-fsync-freq=-1 cleanup
