import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Schedule, ScheduleExpression, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { VigilFunction } from './node-function.ts';
import { grantTable } from './table.ts';

export interface VigilReportsProps {
  readonly table: ITable;
  /** Runtime settings (table name; VIGIL_EMAIL_FROM and VIGIL_PUBLIC_URL for the e-mails). */
  readonly environment: Record<string, string>;
}

/**
 * The report e-mails (lib/reports, docs/reports.md): EventBridge Scheduler invokes the reports
 * function every 15 minutes; each run sends the reports whose period ended, each claimed in the
 * table first, so a retried or overlapping run sends none twice. The stack lets it send through
 * SES as the notifier does (VigilNotifications.sendEmailFrom).
 */
export class VigilReports extends Construct {
  readonly sender: NodejsFunction;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: VigilReportsProps) {
    super(scope, id);
    this.sender = new VigilFunction(this, 'Sender', {
      entry: 'functions/reports.ts',
      timeout: Duration.minutes(5),
      environment: props.environment,
    }).function;
    // Reads users, the catalog's rollups, incidents and pages; writes claims and the e-mail quota.
    grantTable(props.table, this.sender);
    // A failed run is retried once; the next run (15 minutes on) takes over whatever is left.
    this.sender.configureAsyncInvoke({ retryAttempts: 1, maxEventAge: Duration.minutes(15) });
    const role = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    });
    role.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.sender.functionArn] }),
    );
    this.schedule = new Schedule(this, 'Schedule', {
      description: 'Vigil: sends the weekly and monthly report e-mails that are due',
      schedule: ScheduleExpression.rate(Duration.minutes(15)),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.sender, { retryAttempts: 2, role: role.withoutPolicyUpdates() }),
    });
  }
}
