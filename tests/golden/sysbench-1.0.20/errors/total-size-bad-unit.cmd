sysbench fileio --file-total-size=1X cleanup
