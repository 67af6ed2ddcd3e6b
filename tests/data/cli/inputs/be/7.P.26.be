data|court|mod
vote|general|nil
courts|best|obj
