module example.com/pvsample

go 1.19
