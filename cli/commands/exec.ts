// exec: run a script through MCP `execute`, or plan / apply it through /app/v1/execute.
import { readFile } from 'node:fs/promises';
import { defineCommand } from '../command.ts';
import { CliError, describeError, usageError } from '../errors.ts';
import { t } from '../i18n.ts';
import { appExecute, execute, executionError, type ExecuteContent } from '../service.ts';
import { table } from '../format.ts';
import type { CommandContext } from '../context.ts';

async function readScript(ctx: CommandContext, source: string): Promise<string> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(source, 'utf8');
  } catch (err) {
    throw new CliError('file_unreadable', t('fileNotReadable', { path: source, detail: (err as NodeJS.ErrnoException).code ?? String(err) }), {
      resolution: t('fileNotReadableHelp'),
    });
  }
}

function printLogs(ctx: CommandContext, logs: unknown[]): void {
  for (const entry of logs) {
    const e = entry as { level?: string; message?: string };
    ctx.io.err(typeof e?.message === 'string' ? `[${e.level ?? 'log'}] ${e.message}\n` : `${JSON.stringify(entry)}\n`);
  }
}

function printResult(ctx: CommandContext, content: ExecuteContent, raw: boolean): void {
  const value = content.result ?? null;
  if (raw) ctx.io.out(typeof value === 'string' ? (value.endsWith('\n') ? value : `${value}\n`) : `${JSON.stringify(value)}\n`);
  else ctx.printJson(value);
}

/** Exit status of a failed execution: 1, with the error (code, message, resolution) on stderr. */
function failed(ctx: CommandContext, content: ExecuteContent): number {
  if (ctx.json) ctx.printJson(content);
  ctx.io.err(`${describeError(executionError(content))}\n`);
  return 1;
}

const compact = (value: unknown, max = 100) => {
  const s = JSON.stringify(value) ?? 'undefined';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

export const execCommand = defineCommand({
  name: 'exec',
  args: '<script.js | ->',
  summary: ['Run a script in the sandbox (or plan / apply its writes)', 'Executar um script no sandbox (ou planejar / aplicar suas escritas)'],
  details: [
    "The script is the body of an async function; `return` gives the result, printed as JSON. console output goes to\nstderr. A failing script exits 1 and prints its error code, message and resolution.\n\n--plan runs it with every write recorded instead of done and shows the planned operations; --apply <token> runs\nthe same script again in one transaction and commits only if its writes equal the plan.\n\nExamples:\n  siglata exec report.js\n  echo 'return (await files_list({})).items.length' | siglata exec -\n  siglata exec rename.js --plan\n  siglata exec rename.js --apply <planToken>",
    "O script é o corpo de uma função async; `return` dá o resultado, mostrado como JSON. A saída de console vai para\nstderr. Um script que falha sai com 1 e mostra código, mensagem e solução do erro.\n\n--plan executa registrando cada escrita em vez de fazê-la e mostra as operações planejadas; --apply <token>\nexecuta o mesmo script de novo em uma transação e só confirma se as escritas forem iguais às do plano.\n\nExemplos:\n  siglata exec relatorio.js\n  echo 'return (await files_list({})).items.length' | siglata exec -\n  siglata exec renomear.js --plan\n  siglata exec renomear.js --apply <planToken>",
  ],
  options: {
    raw: {
      type: 'boolean',
      help: ['Print a string result as is (other results as compact JSON)', 'Mostrar um resultado texto como está (outros como JSON compacto)'],
    },
    plan: {
      type: 'boolean',
      help: ['Record the writes instead of doing them; print the plan and its token', 'Registrar as escritas em vez de fazê-las; mostrar o plano e seu token'],
    },
    apply: { type: 'string', placeholder: 'TOKEN', help: ['Apply a plan made with --plan (same script)', 'Aplicar um plano feito com --plan (mesmo script)'] },
  },
  positionals: { min: 1, max: 1, name: 'script' },
  async run(ctx, values, [source]) {
    if (values.plan && values.apply !== undefined) throw usageError('--plan and --apply: choose one');
    const script = await readScript(ctx, source);
    const api = await ctx.api();

    if (values.plan) {
      const content = await appExecute(api, { script, mode: 'plan' });
      printLogs(ctx, content.logs);
      if (!content.ok) return failed(ctx, content);
      if (ctx.json) {
        ctx.printJson(content);
        return 0;
      }
      const ops = content.operations ?? [];
      ctx.io.out(`${t('planHeader', { count: ops.length })}\n`);
      if (ops.length)
        ctx.io.out(
          `${table(
            ['#', 'binding', 'input'],
            ops.map((o) => [String(o.index + 1), o.binding, compact(o.input)]),
            [true],
          )}\n`,
        );
      ctx.io.out(
        `\nresult: ${compact(content.result ?? null, 400)}\n\n${t('planApplyHint')}\n  siglata exec ${source === '-' ? '-' : source} --apply ${content.planToken}\n`,
      );
      return 0;
    }

    if (values.apply !== undefined) {
      let content: ExecuteContent;
      try {
        content = await appExecute(api, { script, mode: 'apply', planToken: String(values.apply) });
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
        // A spent plan token: its writes were applied before, so "nothing was applied" would mislead.
        ctx.io.err(err.code === 'plan_already_applied' ? `${describeError(err)}\n` : `${describeError(err)}\n${t('notApplied')}\n`);
        return err.exitCode;
      }
      printLogs(ctx, content.logs);
      if (!content.ok || content.applied === false) {
        const code = failed(ctx, content);
        ctx.io.err(`${t('notApplied')}\n`);
        return code;
      }
      if (ctx.json) {
        ctx.printJson(content);
        return 0;
      }
      ctx.io.err(`${t('applied', { count: content.operations?.length ?? 0 })}\n`);
      printResult(ctx, content, Boolean(values.raw));
      return 0;
    }

    const content = await execute(api, script);
    printLogs(ctx, content.logs);
    if (!content.ok) return failed(ctx, content);
    if (ctx.json) ctx.printJson(content);
    else printResult(ctx, content, Boolean(values.raw));
    return 0;
  },
});
