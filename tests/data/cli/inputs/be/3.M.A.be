court|better|nn
new york|generals|nil
new_york|generals|mod
new york|generals|gen
new york|Economy|nil
children|election|nil
geese|pinochet|gen
ruling|nil|NIL
election|nil|gen
new york| leading space|obj
is|data|nn
