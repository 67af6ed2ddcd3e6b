best|nil|gen
goose|better|gen
general|nil|gen
best|court|nil
courts|vote|mod
courts|courts|nn
