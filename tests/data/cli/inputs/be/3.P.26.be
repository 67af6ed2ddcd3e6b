goose|nil|nil
agreement|general|pcomp-n
ruled|arrested|subj
arrest|NIL|nil
judge|better|nil
children|election|nil
geese|pinochet|gen
geese|pinochet|gen
new york|generals|nil
_cn_|nil|nil
