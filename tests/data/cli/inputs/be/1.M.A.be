vote|children|mod
pinochet|pinochet|nn
best|was|subj
 leading space|ruling|mod
vote|data|mod
is|general|nil
pinochet|nil|mod
agreement|was|obj
