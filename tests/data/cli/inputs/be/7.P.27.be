arrest|nil|nn
Economy|court|gen
the big courts|london|mod
the big courts|the big courts|nn
vote|agreement|nn
arrest|nil|nn
best|elections|obj
Economy|court|gen
