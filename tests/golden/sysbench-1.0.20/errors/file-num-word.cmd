sysbench fileio --file-num=x cleanup
