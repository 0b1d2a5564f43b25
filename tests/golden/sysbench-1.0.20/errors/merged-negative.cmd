sysbench fileio --file-merged-requests=-1 cleanup
