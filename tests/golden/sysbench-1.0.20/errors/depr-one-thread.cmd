sysbench fileio --num-threads=1 --file-num=1 --file-total-size=16K cleanup
