sysbench fileio --file-rw-ratio=-1 cleanup
