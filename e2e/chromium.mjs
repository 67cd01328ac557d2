// How every browser of the tests and the benchmark is launched: Debian's Chromium (never a
// download), headless, with the background traffic and QUIC a measurement should not see.
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
