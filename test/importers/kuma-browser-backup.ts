/** A Kuma backup (monitor.toJSON's fields, Kuma 2.x's defaults) of the given real-browser monitors. */
export const browserBackup = (...monitors: Record<string, unknown>[]) =>
  JSON.stringify({
    version: '2.0.0',
    notificationList: [],
    monitorList: monitors.map((m, i) => ({
      id: i + 1,
      type: 'real-browser',
      active: true,
      interval: 60,
      retryInterval: 60,
      maxretries: 0,
      timeout: 48,
      accepted_statuscodes: ['200-299'],
      remote_browser: null,
      screenshot_delay: 0,
      ...m,
    })),
  });
