/**
 * The two-layer Berlin rota the on-call API tests share: layer 1, two people daily at 09:00 Berlin
 * time; layer 2, a third on weekdays 09:00-17:00 (over the spring DST change of 2026-03-29).
 */
export function berlinTwoLayerRota(people: { daily: [string, string]; office: string }) {
  return {
    name: 'Primary',
    time_zone: 'Europe/Berlin',
    layers: [
      {
        name: 'Everyone',
        members: [...people.daily],
        rotation: { type: 'daily', handoff: '09:00', start: '2026-03-27' },
      },
      {
        name: 'Office hours',
        members: [people.office],
        rotation: { type: 'weekly', handoff: '09:00', start: '2026-03-23' },
        restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
      },
    ],
  };
}
