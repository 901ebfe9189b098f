import type { ChannelForm } from './form';

export const matrixForm: ChannelForm = {
  label: 'Matrix',
  // The lists show the room it posts to (the homeserver is the first field).
  target: ['room_id'],
  fields: [
    {
      key: 'homeserver',
      label: 'Homeserver URL',
      kind: 'url',
      required: true,
      hint: 'The base URL of the homeserver the posting account is on.',
      placeholder: 'https://matrix.example.org',
    },
    {
      key: 'room_id',
      label: 'Room ID',
      kind: 'text',
      required: true,
      hint: 'The room’s internal ID (in Element: Room settings → Advanced), not an alias such as #ops:example.org. Invite the posting account first.',
      placeholder: '!abcdefgh:matrix.example.org',
    },
    {
      key: 'access_token',
      label: 'Access token',
      kind: 'secret',
      required: true,
      hint: 'The posting account’s access token (Element: Settings → Help & About → Access token; a dedicated bot account is best). Write-only: never shown again.',
    },
  ],
};
