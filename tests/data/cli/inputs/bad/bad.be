pinochet|arrest|nn
this line has no bars
