sysbench fileio --file-fsync-all=1 --file-num=1 --file-total-size=16K cleanup
