sysbench fileio --file-fsync-all=yes cleanup
