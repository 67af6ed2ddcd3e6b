ruling|nil|NIL
arrested|nil|gen
children|judge|subj
court|better|nn
new_york|generals|mod
voted|nil|obj
judge|best|obj
ruling|nil|NIL
Economy|agreement|gen
new york|Economy|mod
