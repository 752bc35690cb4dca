/** The rule names queue models write at the head of their reasons (fills.csv and the decision log read them). */
export const QUEUE_POSITION = 'QUEUE_POSITION';
export const QUEUE_PROBABILISTIC = 'QUEUE_PROBABILISTIC';
export const QUEUE_ESTIMATE = 'QUEUE_ESTIMATE';
