election|NIL|gen
elections|vote|obj
london|best|nil
general|pinochet|gen
elections|vote|obj
 leading space|NIL|gen
generals|U.S.|pcomp-n
london|election|nn
agreement|geese|gen
