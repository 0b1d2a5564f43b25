sysbench fileio --num-threads=2 --file-num=1 --file-total-size=16K cleanup
