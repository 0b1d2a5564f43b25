sysbench fileio --file-num=3k cleanup
