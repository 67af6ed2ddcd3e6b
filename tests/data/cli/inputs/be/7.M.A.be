Economy|court|gen
judges|new_york|obj
the big courts|london|mod
arrest|nil|nn
goose|london|obj
Economy|ruled|nil
children|better|nil
U.S.|better|nil
geese| leading space|pcomp-n
