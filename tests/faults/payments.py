"""What a run of `pay FROM TO AMOUNT` commands leaves each player of a two-player classic game."""

START_CASH = 2000  # classic.toml start_cash


def cash_after(commands) -> dict:
    """Cash of Anna and Boris after these payments, from the start cash."""
    cash = {"Anna": START_CASH, "Boris": START_CASH}
    for line in commands:
        _, payer, payee, amount = line.split()
        cash[payer] -= int(amount)
        cash[payee] += int(amount)
    return cash
