import { Command } from 'commander';
export function reportCommand(): Command { return new Command('report'); }
