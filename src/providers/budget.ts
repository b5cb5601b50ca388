// --max-cost-usd. Before each paid call the gateway reserves that call's worst case (its counted input plus its
// full output allowance); when the reservation would pass the limit the call is not made and the run stops. The
// reservation is settled to the response's real cost, so concurrent calls can never jointly overshoot.
import { addUsd } from './pricing.js';

export class BudgetExhausted extends Error {
  constructor(
    readonly limitUsd: number,
    readonly spentUsd: number,
    readonly nextUsd: number,
  ) {
    super(
      `the next call (up to $${nextUsd.toFixed(6)}) would pass the budget of $${limitUsd} ($${spentUsd.toFixed(6)} spent)`,
    );
    this.name = 'BudgetExhausted';
  }
}

export class Budget {
  private spent = 0;
  private reserved = 0;

  /** limitUsd null: no limit (costs are still summed). */
  constructor(readonly limitUsd: number | null) {}

  get spentUsd(): number {
    return this.spent;
  }

  /** Reserves the worst case of the next call, or throws BudgetExhausted without reserving anything. */
  reserve(worstUsd: number): void {
    if (this.limitUsd !== null && this.spent + this.reserved + worstUsd > this.limitUsd) {
      throw new BudgetExhausted(this.limitUsd, this.spent, worstUsd);
    }
    this.reserved = addUsd(this.reserved, worstUsd);
  }

  /** Replaces a reservation with what the call really cost (the worst case again when the cost is unknown). */
  settle(worstUsd: number, actualUsd: number | null): void {
    this.reserved = addUsd(this.reserved, -worstUsd);
    this.spent = addUsd(this.spent, actualUsd ?? worstUsd);
  }
}
