sysbench fileio --file-num=0 cleanup
