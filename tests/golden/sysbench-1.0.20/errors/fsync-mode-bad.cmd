sysbench fileio --file-fsync-mode=foo cleanup
