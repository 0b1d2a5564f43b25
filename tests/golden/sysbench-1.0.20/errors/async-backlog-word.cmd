sysbench fileio --file-async-backlog=x cleanup
