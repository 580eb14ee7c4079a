// Connect an agent: the mind's MCP endpoint and configurations ready to paste for the common clients.
// The key itself is never shown again: each configuration holds a placeholder the person replaces.
import { CopyButton, Section, useMind } from '../ui.js';

const PLACEHOLDER = 'mk_YOUR_MIND_KEY';
/** VS Code's own placeholder syntax: the editor asks for the key and fills it in. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input variable, not a template
const VSCODE_KEY_INPUT = 'Bearer ${input:mind-key}';

export function ConnectTab() {
  const { mindName } = useMind();
  const origin = window.location.origin;
  const endpoint = `${origin}/mcp`;
  // The service serves the stdio bridge itself: npx fetches it from here, not from a registry.
  const bridgeTarball = `${origin}/downloads/mindservice-sdk.tgz`;
  const name =
    mindName
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'mind';
  const configs: Array<[title: string, where: string, text: string]> = [
    [
      'Claude Code',
      'Run in a terminal:',
      `claude mcp add --transport http ${name} ${endpoint} --header "Authorization: Bearer ${PLACEHOLDER}"`,
    ],
    [
      'VS Code',
      '.vscode/mcp.json (the editor asks for the key once and keeps it):',
      JSON.stringify(
        {
          inputs: [{ type: 'promptString', id: 'mind-key', description: 'Mind Key (mk_...)', password: true }],
          servers: { [name]: { type: 'http', url: endpoint, headers: { Authorization: VSCODE_KEY_INPUT } } },
        },
        null,
        2,
      ),
    ],
    [
      'Cursor and other mcpServers files',
      '~/.cursor/mcp.json:',
      JSON.stringify({ mcpServers: { [name]: { url: endpoint, headers: { Authorization: `Bearer ${PLACEHOLDER}` } } } }, null, 2),
    ],
    [
      'Claude Desktop and clients that launch a command',
      'claude_desktop_config.json (npx fetches mind-mcp from this server; it forwards standard input and output to the endpoint):',
      JSON.stringify(
        {
          mcpServers: {
            [name]: {
              command: 'npx',
              args: ['-y', '-p', bridgeTarball, 'mind-mcp'],
              env: { MIND_URL: origin, MIND_KEY: PLACEHOLDER },
            },
          },
        },
        null,
        2,
      ),
    ],
  ];
  return (
    <>
      <Section title="The mind's MCP endpoint">
        <p>
          <code data-testid="mcp-endpoint">{endpoint}</code> <CopyButton text={endpoint} label="Copy the endpoint" />
        </p>
        <p>
          Agents authenticate with the mind's key as <code>Authorization: Bearer</code>. It was shown once, when the mind was made, and is
          never shown again: replace <code>{PLACEHOLDER}</code> below with it. Lost it? Make a new mind, or ask your operator.
        </p>
      </Section>
      {configs.map(([title, where, text]) => (
        <Section key={title} title={title}>
          <p>{where}</p>
          <pre>
            <code>{text}</code>
          </pre>
          <CopyButton text={text} label={`Copy the ${title} configuration`} />
        </Section>
      ))}
    </>
  );
}
