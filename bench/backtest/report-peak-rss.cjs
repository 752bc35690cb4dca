// Preloaded into a whole `exsim` process by the backtest bench (node --require): reports the
// process's peak RSS on stderr as it exits, whatever the command did.
process.on('exit', () => {
  process.stderr.write(`exsim-peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
